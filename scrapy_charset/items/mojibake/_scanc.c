/* The item checks' pre-filter, compiled: where in a text the marks' pattern may match.
 *
 * The marks' regular expressions (badness.py) are the reference. This module reads the
 * text's code points directly (1-, 2- and 4-byte strings, no encoding step), looks up
 * each one's classes in a table built in Python from the classes those expressions use,
 * and returns the positions where a branch's characters stand side by side (its
 * look-around without the readings' details): a superset of the positions the pattern
 * matches at, which the pattern then tries one by one. Built by scripts/build_scanner.py
 * or by the wheel build with SCRAPY_CHARSET_COMPILE=1; without it the pure path runs.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

/* The bits of a code point's classes (_fastscan.py: CLASS_BITS, then the readings'). */
#define S_BIT 0   /* a mark of one character */
#define LL_BIT 1  /* a lead of a Latin reading */
#define LC_BIT 2  /* a continuation character of a Latin reading */
#define SC_BIT 3  /* a continuation character of a script reading */
#define SL_BIT 4  /* a two-byte lead of a script reading */
#define H_BIT 5   /* a windows-1252 character of 0x80-0xFF */
#define A_BIT 6   /* an ASCII character a legacy trail byte can be */
#define CL_BIT 7  /* a cp437 lead */
#define J_BIT 8   /* a Shift_JIS reading of a UTF-8 lead byte (a mark of one character) */
#define XL_BIT 9  /* an x-mac-cyrillic lead of a Latin letter's sequence */
#define XC_BIT 10 /* an x-mac-cyrillic continuation character that is a Cyrillic letter */
#define CC_BIT 11 /* a cp437 continuation character */
/* Then, one bit per Latin reading each: its two-, three- and four-byte leads, and its
 * continuation characters. */
#define READINGS 5
#define LEAD2_SHIFT 12
#define LEAD3_SHIFT (LEAD2_SHIFT + READINGS)
#define LEAD4_SHIFT (LEAD3_SHIFT + READINGS)
#define CONT_SHIFT (LEAD4_SHIFT + READINGS)
#define READING_MASK ((1u << READINGS) - 1)

#define ENTRIES 0x10001 /* the BMP's code points, then every supplementary one */
#define TABLE_SIZE (ENTRIES * 4)
#define QUIET_TABLE_SIZE (0x10000 * 2)

static inline uint32_t
entry(const uint8_t *table, Py_UCS4 c)
{
    uint32_t value;
    memcpy(&value, table + 4 * (size_t)c, sizeof value); /* native byte order */
    return value;
}

/* Whether a position is a candidate, from the classes of the characters around it: bit
 * tests only. In text windows-1252 does not encode whole, a Latin lead must be followed
 * by the continuation characters it needs in its own reading (the sequence branch), or
 * be an x-mac-cyrillic lead followed by a Cyrillic letter of its continuation bytes. */
static inline uint32_t
hit_sequence(uint32_t cur, uint32_t n1, uint32_t n2, uint32_t n3)
{
    uint32_t c1 = (n1 >> CONT_SHIFT) & READING_MASK;
    uint32_t c2 = (n2 >> CONT_SHIFT) & READING_MASK;
    uint32_t c3 = (n3 >> CONT_SHIFT) & READING_MASK;
    uint32_t two = (cur >> LEAD2_SHIFT) & c1;
    uint32_t three = (cur >> LEAD3_SHIFT) & c1 & c2;
    uint32_t four = (cur >> LEAD4_SHIFT) & c1 & c2 & c3;
    uint32_t hit = (two | three | four) & READING_MASK;
    if ((cur >> XL_BIT) & 1u) {
        hit |= (n1 >> XC_BIT) & 1u;
    }
    return hit;
}

/* A script reading's continuation character after a character that is not ASCII
 * (*prev_na*) and before another, or after a two-byte lead. */
static inline uint32_t
hit_script(uint32_t prev, uint32_t prev_na, uint32_t cur, uint32_t next)
{
    return (cur >> SC_BIT) & (((next >> SC_BIT) & prev_na) | (prev >> SL_BIT)) & 1u;
}

/* ...and in text it encodes whole, any Latin lead and continuation character, either
 * way round, and the legacy pairs and trails. */
static inline uint32_t
hit_legacy(uint32_t prev, uint32_t cur, uint32_t next, uint32_t next2)
{
    uint32_t latin = ((cur >> LL_BIT) & (next >> LC_BIT)) | ((prev >> LL_BIT) & (cur >> LC_BIT));
    uint32_t pair = (cur >> H_BIT) & ((next >> H_BIT) | ((next >> A_BIT) & (next2 >> H_BIT)));
    return (latin | pair) & 1u;
}

/* The script readings' quiet test (windows-1251 and windows-1253: _fastscan.py, QUIET_BITS).
 * The bits of a code point's entry in the second table, 16 bits each, BMP only. */
#define Q_LEAD_1251 0      /* 2 bits: the continuation bytes a windows-1251 lead needs */
#define Q_CONT_1251 (1u << 2)
#define Q_LEAD_1253 3      /* 2 bits: the same for windows-1253 */
#define Q_CONT_1253 (1u << 5)
#define Q_ALPHABET_SHIFT 6 /* 5 bits: the Cyrillic alphabets its capital is distinctive of */
#define Q_ALPHABETS 0x1Fu
#define Q_MIXED (1u << 11)  /* its capital is several characters, one of them distinctive */
#define Q_SYMBOL (1u << 12) /* a letter text uses as a symbol (ª º ˆ ˜) */
#define Q_APOSTROPHE (1u << 13) /* a letter of a Cyrillic word without case (’ as ʼ) */
#define Q_SCRIPT_1251 (1u << 14) /* in the block of windows-1251's script (U+0400-U+04FF) */
#define Q_WORD_SECOND (1u << 15) /* second of a pair of the one-letter-word rule ("ё" of "Рё") */
#define Q_SIZE(e, shift) (((e) >> (shift)) & 3u)

typedef struct {
    const uint8_t *table;
    int kind;
    const void *data;
    Py_ssize_t n;
    int sequences; /* a windows-1251 sequence was weighed */
    int outside;   /* a character of windows-1251's script outside its sequences */
    PyObject *script[2]; /* the quiet marks' positions of windows-1251, of windows-1253 */
} Quiet;

static inline Py_UCS4
char_at(const Quiet *q, Py_ssize_t i)
{
    return PyUnicode_READ(q->kind, q->data, i);
}

static inline uint32_t
quiet_class(const Quiet *q, Py_UCS4 c)
{
    uint16_t value;
    if (c >= 0x10000) {
        return 0;
    }
    memcpy(&value, q->table + 2 * (size_t)c, sizeof value);
    return value;
}

static inline uint32_t
quiet_at(const Quiet *q, Py_ssize_t i)
{
    return quiet_class(q, char_at(q, i));
}

/* The UTF-8 sequence of one reading that holds the continuation character at *i*, as
 * utf8_sequences finds it: its lead is the nearest character before that is not one of
 * the reading's continuation characters, at most three back, followed by as many as it
 * needs (a reading's continuation characters are never its leads). Its start, or -1. */
static Py_ssize_t
covering(const Quiet *q, Py_ssize_t i, int lead_shift, uint32_t cont, Py_ssize_t *end)
{
    for (Py_ssize_t k = 1; k <= 3 && i - k >= 0; k++) {
        uint32_t e = quiet_at(q, i - k);
        if (e & cont) {
            continue;
        }
        Py_ssize_t last = i - k + (Py_ssize_t)Q_SIZE(e, lead_shift);
        if (last < i || last >= q->n) {
            return -1;
        }
        for (Py_ssize_t j = i + 1; j <= last; j++) {
            if (!(quiet_at(q, j) & cont)) {
                return -1;
            }
        }
        *end = last + 1;
        return i - k;
    }
    return -1;
}

static inline int
ascii_letter(Py_UCS4 c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

/* Whether the windows-1251 sequence text[a:b] says nothing by every rule of the evidence
 * (badness.RULES; the apostrophe is a letter of the word): letters only, no case break
 * around it, not capitals before a lowercase letter, not a capital after a capital then
 * a lowercase letter, no ASCII letter either side, distinctive letters of one alphabet,
 * not a pair that is a word alone and whose second character may make it a one-letter
 * word (one-letter-word). Its lead is a letter: never a math symbol, never Ã or Å. */
static int
weighs_nothing(const Quiet *q, Py_ssize_t a, Py_ssize_t b)
{
    Py_UCS4 before = a > 0 ? char_at(q, a - 1) : ' ';
    Py_UCS4 after = b < q->n ? char_at(q, b) : ' ';
    if (ascii_letter(before) || ascii_letter(after)) {
        return 0;
    }
    if (b - a == 2 && (quiet_at(q, a + 1) & Q_WORD_SECOND) && !Py_UNICODE_ISALNUM(before) &&
        !Py_UNICODE_ISALNUM(after)) {
        return 0; /* one-letter-word */
    }
    int lower_before = Py_UNICODE_ISLOWER(before);
    int all_upper = 1, distinctive = 0;
    uint32_t alphabets = Q_ALPHABETS;
    for (Py_ssize_t i = a; i < b; i++) {
        Py_UCS4 c = char_at(q, i);
        uint32_t e = quiet_class(q, c);
        int lower = 0, upper = 0;
        if (!(e & Q_APOSTROPHE)) {
            if (!Py_UNICODE_ISALPHA(c) || (e & (Q_SYMBOL | Q_MIXED))) {
                return 0;
            }
            lower = Py_UNICODE_ISLOWER(c);
            upper = Py_UNICODE_ISUPPER(c);
        }
        if (lower_before && upper) {
            return 0; /* case-break */
        }
        if (i == a + 1 && Py_UNICODE_ISUPPER(before) && all_upper && lower) {
            return 0; /* capital-capital-lowercase */
        }
        uint32_t mine = (e >> Q_ALPHABET_SHIFT) & Q_ALPHABETS;
        if (mine) {
            distinctive = 1;
            alphabets &= mine;
        }
        all_upper &= upper;
        lower_before = lower;
    }
    if (lower_before && Py_UNICODE_ISUPPER(after)) {
        return 0; /* case-break */
    }
    if (all_upper && Py_UNICODE_ISLOWER(after)) {
        return 0; /* capitals-then-lowercase */
    }
    return !(distinctive && !alphabets); /* mixed-cyrillic-alphabets */
}

/* Whether no windows-1251 sequence can end where text[a:b] starts or start where it ends
 * (a run of sequences: badness._weigh_runs). */
static int
alone(const Quiet *q, Py_ssize_t a, Py_ssize_t b)
{
    Py_ssize_t k = 0;
    while (k < 4 && a - k - 1 >= 0 && (quiet_at(q, a - k - 1) & Q_CONT_1251)) {
        k++;
    }
    if (k >= 1 && k <= 3 && a - k - 1 >= 0 &&
        (Py_ssize_t)Q_SIZE(quiet_at(q, a - k - 1), Q_LEAD_1251) == k) {
        return 0;
    }
    if (b < q->n) {
        Py_ssize_t size = (Py_ssize_t)Q_SIZE(quiet_at(q, b), Q_LEAD_1251);
        if (size && b + size < q->n) {
            Py_ssize_t j = b + 1;
            while (j <= b + size && (quiet_at(q, j) & Q_CONT_1251)) {
                j++;
            }
            if (j > b + size) {
                return 0;
            }
        }
    }
    return 1;
}

/* Whether a script branch's candidate at *i* can never be evidence: its windows-1251
 * sequence, if any, weighs nothing and stands alone, and no windows-1253 sequence holds it
 * (the field's rules aside: see candidates()). */
static int append(PyObject *list, Py_ssize_t position);

/* ... and, when it can, the candidate among the positions of its readings: 1, 0, or -1
 * on an error. */
static int __attribute__((noinline, cold))
quiet_candidate(Quiet *q, Py_ssize_t i)
{
    uint32_t e = quiet_at(q, i);
    Py_ssize_t end;
    if (e & Q_CONT_1251) {
        Py_ssize_t start = covering(q, i, Q_LEAD_1251, Q_CONT_1251, &end);
        if (start >= 0) {
            if (!weighs_nothing(q, start, end) || !alone(q, start, end)) {
                return 0;
            }
            q->sequences = 1;
            if ((start > 0 && (quiet_at(q, start - 1) & Q_SCRIPT_1251)) ||
                (end < q->n && (quiet_at(q, end) & Q_SCRIPT_1251))) {
                q->outside = 1;
            }
        }
    }
    if (e & Q_CONT_1253) {
        if (covering(q, i, Q_LEAD_1253, Q_CONT_1253, &end) >= 0) {
            return 0;
        }
    }
    for (int k = 0; k < 2; k++) {
        if (!(e & (k ? Q_CONT_1253 : Q_CONT_1251))) {
            continue;
        }
        if (q->script[k] == NULL && (q->script[k] = PyList_New(0)) == NULL) {
            return -1;
        }
        if (append(q->script[k], i) < 0) {
            return -1;
        }
    }
    return 1;
}

static int
append(PyObject *list, Py_ssize_t position)
{
    PyObject *item = PyLong_FromSsize_t(position);
    if (item == NULL) {
        return -1;
    }
    int failed = PyList_Append(list, item);
    Py_DECREF(item);
    return failed;
}

#define CLASS_1(c) entry(table, (c))
#define CLASS_2(c) entry(table, (c))
#define CLASS_4(c) entry(table, (c) < 0x10000 ? (c) : 0x10000)
#define AT(KIND, i) ((i) >= 0 && (i) < n ? CLASS_##KIND(s[(i)]) : 0u)

/* The classes whose character may be where a mark is: the loop stops only at them. */
#define STOPS ((1u << S_BIT) | (1u << LL_BIT) | (1u << SC_BIT) | (1u << CC_BIT))
#define LEGACY_STOPS (STOPS | (1u << H_BIT) | (1u << LC_BIT))

/* One scan of a string of one kind: whether windows-1252 encodes it whole (every
 * character is latin-1 or in its high half), then the candidates. The loop reads one
 * class a character and tests it against the stops; the neighbours are read at a stop.
 * A Shift_JIS reading of a UTF-8 lead byte in text windows-1252 does not encode is a mark
 * of one character whatever its neighbours (the pattern's first branch): counted. */
#define SCAN(KIND, TYPE)                                                                   \
    static int scan_##KIND(const TYPE *s, Py_ssize_t n, const uint8_t *table,            \
                           int *encodable, Py_ssize_t *shift_jis, PyObject *out,         \
                           Quiet *q, int *quiet)                                         \
    {                                                                                    \
        int whole = 1;                                                                   \
        if (KIND != 1) {                                                                 \
            for (Py_ssize_t i = 0; i < n; i++) {                                         \
                Py_UCS4 c = s[i];                                                        \
                if (c >= 0x100 && (c >= 0x10000 || !((entry(table, c) >> H_BIT) & 1u))) { \
                    whole = 0;                                                           \
                    break;                                                               \
                }                                                                        \
            }                                                                            \
        }                                                                                \
        *encodable = whole;                                                              \
        int calm = !whole;                                                               \
        const uint32_t stops = whole ? LEGACY_STOPS : STOPS;                             \
        Py_ssize_t counted = 0;                                                          \
        for (Py_ssize_t i = 0; i < n; i++) {                                             \
            /* Four characters at a time while none is a stop. */                        \
            while (i + 4 <= n && !((CLASS_##KIND(s[i]) | CLASS_##KIND(s[i + 1]) |         \
                                    CLASS_##KIND(s[i + 2]) | CLASS_##KIND(s[i + 3])) &    \
                                   stops)) {                                             \
                i += 4;                                                                  \
            }                                                                            \
            if (i >= n) {                                                                \
                break;                                                                   \
            }                                                                            \
            uint32_t cur = CLASS_##KIND(s[i]);                                           \
            if (!(cur & stops)) {                                                        \
                continue;                                                                \
            }                                                                            \
            if (!whole && (cur >> J_BIT) & 1u) {                                         \
                counted++;                                                               \
                calm = 0;                                                                \
                continue;                                                                \
            }                                                                            \
            uint32_t prev = AT(KIND, i - 1);                                             \
            uint32_t next = AT(KIND, i + 1);                                             \
            uint32_t next2 = AT(KIND, i + 2);                                            \
            uint32_t script = hit_script(prev, i > 0 && s[i - 1] >= 0x80, cur, next);    \
            uint32_t other = (cur >> S_BIT) & 1u;                                        \
            if (whole) {                                                                 \
                other |= hit_legacy(prev, cur, next, next2);                             \
            } else {                                                                     \
                if ((cur >> LL_BIT) & 1u) {                                              \
                    other |= hit_sequence(cur, next, next2, AT(KIND, i + 3));            \
                }                                                                        \
                /* cp437: a continuation character after a lead (the pattern counts). */ \
                other |= (cur >> CC_BIT) & (prev >> CL_BIT) & 1u;                        \
            }                                                                            \
            if (!(script | other)) {                                                     \
                continue;                                                                \
            }                                                                            \
            if (calm) {                                                                  \
                int quiet_one = other ? 0 : quiet_candidate(q, i);                       \
                if (quiet_one < 0) {                                                     \
                    return -1;                                                           \
                }                                                                        \
                calm = quiet_one;                                                        \
            }                                                                            \
            if (append(out, i) < 0) {                                                    \
                return -1;                                                               \
            }                                                                            \
        }                                                                                \
        *shift_jis = counted;                                                            \
        *quiet = calm && (!q->sequences || q->outside);                                  \
        return 0;                                                                        \
    }

SCAN(1, Py_UCS1)
SCAN(2, Py_UCS2)
SCAN(4, Py_UCS4)

PyDoc_STRVAR(candidates_doc,
"candidates(table, quiet_table, text, /)\n--\n\n"
"``(encodable, positions, shift_jis, quiet)``: whether windows-1252 encodes *text* whole,\n"
"the positions, in order, where the marks' pattern may match, how many Shift_JIS\n"
"readings of a UTF-8 lead byte it holds (not among the positions), and, when every\n"
"position is a script branch's mark that can never be evidence, the positions that are\n"
"continuation characters of windows-1251 and of windows-1253 (else None). *table*\n"
"holds the classes of each BMP code point, then those of every supplementary one (32 bits\n"
"each);\n"
"*quiet_table* those of the quiet test, of each BMP code point (16 bits each).");

static PyObject *
candidates(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "candidates() takes two class tables and a str");
        return NULL;
    }
    PyObject *classes = args[0];
    PyObject *quiet_classes = args[1];
    PyObject *text = args[2];
    if (!PyUnicode_Check(text) || !PyBytes_Check(classes) || !PyBytes_Check(quiet_classes)) {
        PyErr_SetString(PyExc_TypeError, "candidates() takes two bytes tables and a str");
        return NULL;
    }
    if (PyBytes_GET_SIZE(classes) != TABLE_SIZE) {
        PyErr_SetString(PyExc_ValueError, "the class table must hold 65,537 entries of 4 bytes");
        return NULL;
    }
    if (PyBytes_GET_SIZE(quiet_classes) != QUIET_TABLE_SIZE) {
        PyErr_SetString(PyExc_ValueError, "the quiet table must hold 65,536 entries of 2 bytes");
        return NULL;
    }
#if PY_VERSION_HEX < 0x030C0000
    if (PyUnicode_READY(text) < 0) {
        return NULL;
    }
#endif
    const uint8_t *table = (const uint8_t *)PyBytes_AS_STRING(classes);
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    const void *data = PyUnicode_DATA(text);
    PyObject *out = PyList_New(0);
    if (out == NULL) {
        return NULL;
    }
    int encodable = 1, quiet = 0;
    Py_ssize_t shift_jis = 0;
    Quiet q = {(const uint8_t *)PyBytes_AS_STRING(quiet_classes), PyUnicode_KIND(text), data, n,
               0, 0, {NULL, NULL}}; /* the lists made at their first position */
    int failed;
    switch (PyUnicode_KIND(text)) {
    case PyUnicode_1BYTE_KIND:
        failed = scan_1((const Py_UCS1 *)data, n, table, &encodable, &shift_jis, out, &q, &quiet);
        break;
    case PyUnicode_2BYTE_KIND:
        failed = scan_2((const Py_UCS2 *)data, n, table, &encodable, &shift_jis, out, &q, &quiet);
        break;
    default:
        failed = scan_4((const Py_UCS4 *)data, n, table, &encodable, &shift_jis, out, &q, &quiet);
        break;
    }
    if (!failed && quiet) {
        for (int k = 0; k < 2; k++) {
            if (q.script[k] == NULL && (q.script[k] = PyList_New(0)) == NULL) {
                failed = 1;
            }
        }
    }
    if (failed) {
        Py_DECREF(out);
        Py_XDECREF(q.script[0]);
        Py_XDECREF(q.script[1]);
        return NULL;
    }
    PyObject *script;
    if (quiet) {
        script = Py_BuildValue("(NN)", q.script[0], q.script[1]);
    } else {
        Py_XDECREF(q.script[0]);
        Py_XDECREF(q.script[1]);
        Py_INCREF(Py_None);
        script = Py_None;
    }
    PyObject *count = script == NULL ? NULL : PyLong_FromSsize_t(shift_jis);
    PyObject *result = count == NULL ? NULL : PyTuple_New(4);
    if (result == NULL) {
        Py_DECREF(out);
        Py_XDECREF(script);
        Py_XDECREF(count);
        return NULL;
    }
    PyObject *whole = encodable ? Py_True : Py_False;
    Py_INCREF(whole);
    PyTuple_SET_ITEM(result, 0, whole); /* each reference is the tuple's */
    PyTuple_SET_ITEM(result, 1, out);
    PyTuple_SET_ITEM(result, 2, count);
    PyTuple_SET_ITEM(result, 3, script);
    return result;
}

static PyMethodDef methods[] = {
    {"candidates", (PyCFunction)(void (*)(void))candidates, METH_FASTCALL, candidates_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef_Slot slots[] = {
#if PY_VERSION_HEX >= 0x030C0000
    {Py_mod_multiple_interpreters, Py_MOD_PER_INTERPRETER_GIL_SUPPORTED},
#endif
#if PY_VERSION_HEX >= 0x030D0000
    {Py_mod_gil, Py_MOD_GIL_NOT_USED},
#endif
    {0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "scrapy_charset.items.mojibake._scanc",
    .m_doc = "The pre-filter's compiled scanner: where the marks' pattern may match.",
    .m_size = 0,
    .m_methods = methods,
    .m_slots = slots,
};

PyMODINIT_FUNC
PyInit__scanc(void)
{
    return PyModuleDef_Init(&module);
}

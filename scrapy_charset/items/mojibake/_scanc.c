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
#define NA_BIT 7  /* not ASCII */
#define J_BIT 8   /* a Shift_JIS reading of a UTF-8 lead byte (a mark of one character) */
#define XL_BIT 9  /* an x-mac-cyrillic lead of a Latin letter's sequence */
#define XC_BIT 10 /* an x-mac-cyrillic continuation character that is a Cyrillic letter */
/* Then, one bit per Latin reading each: its two-, three- and four-byte leads, and its
 * continuation characters. */
#define READINGS 5
#define LEAD2_SHIFT 11
#define LEAD3_SHIFT (LEAD2_SHIFT + READINGS)
#define LEAD4_SHIFT (LEAD3_SHIFT + READINGS)
#define CONT_SHIFT (LEAD4_SHIFT + READINGS)
#define READING_MASK ((1u << READINGS) - 1)

#define ENTRIES 0x10001 /* the BMP's code points, then every supplementary one */
#define TABLE_SIZE (ENTRIES * 4)

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

static inline uint32_t
hit_script(uint32_t prev, uint32_t cur, uint32_t next)
{
    return (cur >> SC_BIT) & (((next >> SC_BIT) & (prev >> NA_BIT)) | (prev >> SL_BIT)) & 1u;
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
#define STOPS ((1u << S_BIT) | (1u << LL_BIT) | (1u << SC_BIT))
#define LEGACY_STOPS (STOPS | (1u << H_BIT) | (1u << LC_BIT))

/* One scan of a string of one kind: whether windows-1252 encodes it whole (every
 * character is latin-1 or in its high half), then the candidates. The loop reads one
 * class a character and tests it against the stops; the neighbours are read at a stop.
 * A Shift_JIS reading of a UTF-8 lead byte in text windows-1252 does not encode is a mark
 * of one character whatever its neighbours (the pattern's first branch): counted. */
#define SCAN(KIND, TYPE)                                                                   \
    static int scan_##KIND(const TYPE *s, Py_ssize_t n, const uint8_t *table,            \
                           int *encodable, Py_ssize_t *shift_jis, PyObject *out)         \
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
                continue;                                                                \
            }                                                                            \
            uint32_t prev = AT(KIND, i - 1);                                             \
            uint32_t next = AT(KIND, i + 1);                                             \
            uint32_t next2 = AT(KIND, i + 2);                                            \
            uint32_t hit = ((cur >> S_BIT) & 1u) | hit_script(prev, cur, next);          \
            if (whole) {                                                                 \
                hit |= hit_legacy(prev, cur, next, next2);                               \
            } else if ((cur >> LL_BIT) & 1u) {                                           \
                hit |= hit_sequence(cur, next, next2, AT(KIND, i + 3));                  \
            }                                                                            \
            if (hit && append(out, i) < 0) {                                             \
                return -1;                                                               \
            }                                                                            \
        }                                                                                \
        *shift_jis = counted;                                                            \
        return 0;                                                                        \
    }

SCAN(1, Py_UCS1)
SCAN(2, Py_UCS2)
SCAN(4, Py_UCS4)

PyDoc_STRVAR(candidates_doc,
"candidates(table, text, /)\n--\n\n"
"``(encodable, positions, shift_jis)``: whether windows-1252 encodes *text* whole, the\n"
"positions, in order, where the marks' pattern may match, and how many Shift_JIS\n"
"readings of a UTF-8 lead byte it holds (not among the positions). *table* holds the\n"
"classes of each BMP code point, then those of every supplementary one (32 bits each).");

static PyObject *
candidates(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "candidates() takes a class table and a str");
        return NULL;
    }
    PyObject *classes = args[0];
    PyObject *text = args[1];
    if (!PyUnicode_Check(text) || !PyBytes_Check(classes)) {
        PyErr_SetString(PyExc_TypeError, "candidates() takes a bytes table and a str");
        return NULL;
    }
    if (PyBytes_GET_SIZE(classes) != TABLE_SIZE) {
        PyErr_SetString(PyExc_ValueError, "the class table must hold 65,537 entries of 4 bytes");
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
    int encodable = 1;
    Py_ssize_t shift_jis = 0;
    int failed;
    switch (PyUnicode_KIND(text)) {
    case PyUnicode_1BYTE_KIND:
        failed = scan_1((const Py_UCS1 *)data, n, table, &encodable, &shift_jis, out);
        break;
    case PyUnicode_2BYTE_KIND:
        failed = scan_2((const Py_UCS2 *)data, n, table, &encodable, &shift_jis, out);
        break;
    default:
        failed = scan_4((const Py_UCS4 *)data, n, table, &encodable, &shift_jis, out);
        break;
    }
    if (failed) {
        Py_DECREF(out);
        return NULL;
    }
    PyObject *result =
        Py_BuildValue("(ONn)", encodable ? Py_True : Py_False, out, shift_jis);
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

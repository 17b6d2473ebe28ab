"""A small shop of five menu pages in several encodings, as servers send them: the crawl
README.md and docs/getting-started.md show (tests/test_doc_outputs.py runs it with the
``ADDONS`` line only and compares its log with theirs).

- ``/fr/``: UTF-8 with ``<meta charset="utf-8">``, but the server's header says
  ``iso-8859-1``: browsers obey the header and show mojibake, so the crawl does, and the
  item checks repair it;
- ``/pt/``: UTF-8 whose database stored mojibake: the item checks repair it;
- ``/de/``: declared UTF-8, written in latin-1: U+FFFD, which nothing can repair;
- ``/es/``: windows-1252 declared nowhere; ``/ru/``: windows-1251 declared in ``<meta>``.
"""

from __future__ import annotations

from tests.server import Page

FR = [
    "Crème brûlée", "Café au lait", "Pâté en croûte", "Bœuf bourguignon", "Gâteau basque",
    "Tarte à l'oignon", "Crêpe Suzette", "Œufs en meurette", "Île flottante",
    "Salade niçoise",
]  # fmt: skip
PT = [
    "Pão de queijo", "Feijoada completa", "Açaí na tigela", "Caldo verde", "Pastel de Belém",
    "Frango à passarinho", "Camarão na moranga", "Moqueca baiana", "Bolinho de bacalhau",
    "Quindim",
]  # fmt: skip
DE = [
    "Käsespätzle", "Weißwurst", "Sauerbraten", "Apfelstrudel", "Brötchen", "Rote Grütze",
    "Kartoffelknödel", "Schwarzwälder Kirschtorte", "Königsberger Klopse", "Flammkuchen",
]  # fmt: skip
ES = [
    "Paella valenciana", "Jamón ibérico", "Tortilla española", "Piña colada", "Cañas y tapas",
    "Pimientos de Padrón", "Gazpacho andaluz", "Turrón de Jijona", "Crema catalana",
    "Churros con chocolate",
]  # fmt: skip
RU = ["Борщ", "Пельмени", "Блины", "Щи", "Окрошка", "Сырники", "Голубцы", "Квас", "Вареники", "Уха"]  # noqa: RUF001

#: The items' selector: one item a dish.
DISHES = "li::text"


def _menu(title: str, dishes: list[str], head: str = "") -> str:
    items = "".join(f"<li>{dish}</li>" for dish in dishes)
    return (
        f"<!DOCTYPE html><html><head>{head}<title>{title}</title></head>"
        f"<body><h1>{title}</h1><ul>{items}</ul></body></html>"
    )


def _html(charset: str | None = None) -> dict[str, str]:
    return {"Content-Type": "text/html" + (f"; charset={charset}" if charset else "")}


UTF8_META = '<meta charset="utf-8">'

#: Path -> page, in the order the crawl fetches them.
PAGES = {
    "/fr/": Page(_menu("Menu", FR, UTF8_META).encode(), _html("iso-8859-1")),
    "/pt/": Page(
        _menu("Cardápio", PT, UTF8_META).encode().decode("cp1252").encode(), _html("utf-8")
    ),
    "/de/": Page(_menu("Speisekarte", DE).encode("latin-1"), _html("utf-8")),
    "/es/": Page(_menu("Carta", ES).encode("cp1252"), _html()),
    "/ru/": Page(_menu("Меню", RU, '<meta charset="windows-1251">').encode("cp1251"), _html()),
}

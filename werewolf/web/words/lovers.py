"""The words of the lovers, in French: the catalogs translate them."""
from flask_babel import lazy_gettext as _l

WORDS = {
    "winner.lovers": _l("Les amoureux ont gagné !"),
    "why.lovers": _l("Les amoureux sont les deux derniers survivants."),
}

"""The words of the Medium, in French: the catalogs translate them."""
from flask_babel import lazy_gettext as _l

WORDS = {
    "role.medium": _l("Médium"),
    "role_a.medium": _l("le Médium"),
    "role_help.medium": _l("Vivant, tu lis les morts et tu leur parles, de jour comme de nuit. "
                           "Ne cite jamais le cimetière au village !"),
}

# Its section of the rules page (/rules#role-medium), one paragraph each.
RULES = (
    _l("Tant qu’il vit, il lit le canal des morts et peut y écrire, de jour comme de nuit ; ses "
       "messages portent son nom. Les autres vivants n’en voient rien."),
    _l("Il lui est interdit de citer le cimetière au village : c’est une règle d’honneur, le "
       "serveur ne la vérifie pas."),
)

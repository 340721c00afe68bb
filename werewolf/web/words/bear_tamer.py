"""The Bear Tamer's words (RULES-BOX B3.8), in French: the catalogs translate them."""
from flask_babel import lazy_gettext as _l

WORDS = {
    "role.bear_tamer": _l("Montreur d’ours"),
    "role_a.bear_tamer": _l("le Montreur d’ours"),
    "role_help.bear_tamer": _l("Chaque matin, ton ours grogne si l’un de tes deux voisins est un loup."),
    "ev.bear_growl": _l("L’ours grogne !"),
}

# Its section of the rules page (/rules#role-bear_tamer), one paragraph each.
RULES = (
    _l("Villageois. Chaque matin, après les morts de la nuit, si l’un de ses deux voisins vivants est de "
       "la meute (ou lui-même), tout le monde entend : « L’ours grogne ». Sinon, rien n’est dit."),
    _l("L’annonce ne le nomme jamais. Mort ou privé de pouvoir, son ours se tait."),
)

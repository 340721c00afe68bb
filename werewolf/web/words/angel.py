"""The Angel's words (RULES-BOX B3.14), in French: the catalogs translate them."""
from flask_babel import lazy_gettext as _l

WORDS = {
    "role.angel": _l("Ange"),
    "role_a.angel": _l("l’Ange"),
    "role_help.angel": _l("La partie commence par un jour 0. Si tu meurs avant le jour 1, tu gagnes seul ; "
                          "sinon, tu deviens un simple villageois."),
    "winner.angel": _l("L’Ange a gagné !"),
    "why.angel": _l("L’Ange est mort avant le premier jour : c’est ce qu’il voulait."),
}

RULES = (
    _l("Avec l’Ange dans le paquet, la partie commence par un jour 0 : un débat et un vote, sans "
       "élection, puis la première nuit."),
    _l("Si l’Ange meurt de quelque façon que ce soit avant le début du jour 1 (éliminé au jour 0, "
       "dévoré la première nuit, tué par le Chasseur à l’aube…), il gagne seul, aussitôt. Ensuite, "
       "il n’est plus qu’un villageois."),
)

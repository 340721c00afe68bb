"""The words of the Freemasons, in French: the catalogs translate them."""
from flask_babel import lazy_gettext as _l

WORDS = {
    "role.freemason": _l("Franc-Maçon"),
    "role_a.freemason": _l("un Franc-Maçon"),
    "role_help.freemason": _l("Vous êtes deux Francs-Maçons et vous vous connaissez : "
                              "l’autre est un villageois sûr."),
    "ev.freemason": _l("L’autre Franc-Maçon est {name}."),
    "ev.freemason_alone": _l("L’autre carte de Franc-Maçon est restée au milieu : personne ne partage ton secret."),
    "tl.freemason": _l("{name} est Franc-Maçon."),
}

# Its section of the rules page (/rules#role-freemason), one paragraph each.
RULES = (
    _l("Deux cartes de Francs-Maçons : chacun apprend qui est l’autre dès la distribution (après "
       "le Voleur s’il y en a un). Si l’autre carte est restée au milieu, il est seul."),
    _l("Ils n’ont pas de canal à eux : ils parlent au village comme tout le monde."),
)

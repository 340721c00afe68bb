"""The Scapegoat's words (RULES-BOX B3.3), in French: the catalogs translate them."""
from flask_babel import lazy_gettext as _l

WORDS = {
    "role.scapegoat": _l("Bouc émissaire"),
    "role_a.scapegoat": _l("le Bouc émissaire"),
    "role_help.scapegoat": _l("En cas d’égalité au vote, c’est toi qui es éliminé. Mort, tu désignes qui "
                              "votera le lendemain."),
    "step.scapegoat": _l("Le Bouc émissaire désigne les votants"),
    "limit.scapegoat": _l("Bouc émissaire"),
    "prompt.scapegoat.voters": _l("Qui votera demain ?"),
    "ev.vote_scapegoat": _l("Égalité entre {names} : le Bouc émissaire {name} est éliminé à leur place."),
    "ev.scapegoat_voters": _l("Le Bouc émissaire a choisi qui vote demain : {names}."),
    "ev.scapegoat_voters_none": _l("Le Bouc émissaire a décidé que personne ne votera demain."),
    "tl.scapegoat_voters": _l("Le Bouc émissaire désigne les votants du lendemain : {names}."),
    "tl.scapegoat_voters_none": _l("Le Bouc émissaire ne laisse personne voter le lendemain."),
}

# Its section of the rules page (/rules#role-scapegoat), one paragraph each.
RULES = (
    _l("Villageois. Quand un vote du village se termine à égalité, c’est lui qui est éliminé, avant toute "
       "autre règle d’égalité (ni Capitaine, ni second tour)."),
    _l("Mort, il choisit qui votera le lendemain (personne, quelques joueurs ou tous). Si aucun d’eux n’est "
       "en vie au moment du vote, personne n’est éliminé ce jour-là. Sans choix, tout le monde vote."),
)

"""The words of the Werewolves, in French: the catalogs translate them."""
from flask_babel import lazy_gettext as _l

WORDS = {
    "role.werewolf": _l("Loup-Garou"),
    "role_a.werewolf": _l("un Loup-Garou"),
    "role_help.werewolf": _l("Chaque nuit, avec les autres loups, tu dévores un villageois."),
    "step.werewolves": _l("Les Loups-Garous se réveillent…"),
    "prompt.werewolves.designate": _l("Désigne ta victime"),
    "ev.designation": _l("{name} désigne {target}."),
    "ev.designation_none": _l("{name} retire son choix."),
    "ev.wolves_victim": _l("Votre victime : {name}."),
    "ev.wolves_no_victim": _l("Vous n’avez désigné personne."),
    "tl.wolves_victim": _l("Les loups choisissent {name}."),
    "tl.wolves_no_victim": _l("Les loups ne choisissent personne."),
    "limit.werewolves": _l("Loups-Garous"),
}

# Its section of the rules page (/rules#role-werewolf), one paragraph each.
RULES = (
    _l("Chaque nuit, les Loups-Garous se réveillent ensemble : dès la première nuit, ils savent "
       "qui sont les autres loups et se parlent dans leur propre canal."),
    _l("Chaque loup vivant désigne un joueur vivant (un loup aussi), et peut changer d’avis ou "
       "retirer son choix. Dès que tous désignent le même joueur, il est la victime. À la fin du "
       "temps, c’est le joueur le plus désigné (au hasard entre les ex æquo) ; sans aucune "
       "désignation, personne n’est dévoré."),
    _l("Le jour, ils se cachent parmi les villageois. Ils gagnent quand il ne reste plus que des loups."),
)

"""The Fox's words (RULES-BOX B3.7), in French: the catalogs translate them."""
from flask_babel import lazy_gettext as _l

WORDS = {
    "role.fox": _l("Renard"),
    "role_a.fox": _l("le Renard"),
    "role_help.fox": _l("Chaque nuit, tu flaires un joueur et ses deux voisins : s’il y a un loup parmi "
                        "eux, tu gardes ton flair ; sinon tu le perds pour toujours."),
    "step.fox": _l("Le Renard flaire"),
    "limit.fox": _l("Renard"),
    "prompt.fox.sniff": _l("Qui flairer cette nuit ?"),
    "btn.fox.done": _l("Ne pas flairer"),
    "ev.fox_sniff_wolf": _l("Il y a au moins un loup parmi {names} : tu gardes ton flair."),
    "ev.fox_sniff_none": _l("Aucun loup parmi {names} : tu perds ton flair."),
    "tl.fox_sniff_wolf": _l("Le Renard flaire un loup autour de {name}."),
    "tl.fox_sniff_none": _l("Le Renard ne flaire aucun loup autour de {name} et perd son flair."),
}

# Its section of the rules page (/rules#role-fox), one paragraph each.
RULES = (
    _l("Villageois. Chaque nuit, après la Voyante, il peut flairer un joueur vivant (lui-même compris) : "
       "il apprend aussitôt si ce joueur ou l’un de ses deux voisins vivants est de la meute."),
    _l("Si aucun ne l’est, il perd son flair pour le reste de la partie. Le Possédé et le Maudit non mordu "
       "ne sont pas des loups pour lui."),
)

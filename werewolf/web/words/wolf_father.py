"""The Accursed Wolf-Father's words (RULES-BOX B3.11), in French: the catalogs translate them."""
from flask_babel import lazy_gettext as _l

WORDS = {
    "role.wolf_father": _l("Infect Père des Loups"),
    "role_a.wolf_father": _l("l’Infect Père des Loups"),
    "role_help.wolf_father": _l("Tu es un loup-garou. Une fois dans la partie, au lieu de laisser mourir la "
                                "victime de la meute, tu peux l’infecter : elle vit et devient loup."),
    "step.wolf_father": _l("L’Infect Père des Loups se réveille…"),
    "limit.wolf_father": _l("Infect Père des Loups"),
    "prompt.wolf_father": _l("La meute a choisi sa victime. L’infecter ?"),   # its menu's title
    "btn.wolf_father.infect": _l("Infecter la victime"),
    "btn.wolf_father.done": _l("Ne pas infecter"),
    "ev.wolf_father_infect": _l("Tu infectes {name}."),
    "tl.wolf_father_infect": _l("L’Infect Père des Loups infecte {name}."),
    "ev.infected": _l("Tu as été infecté : tu vis, et tu te réveilles désormais avec les loups. "
                      "Tu gardes ta carte et ses pouvoirs, mais tu joues pour la meute."),
}

RULES = (
    _l("Un loup-garou de plus : il prend la place d’un des loups de la table, chasse avec la meute et "
       "voit ses membres, qui le voient comme un loup."),
    _l("Chaque nuit, après les loups et avant la Sorcière, il se réveille seul. Une seule fois dans la "
       "partie, si la victime de la meute n’en fait pas partie, il peut l’infecter : elle ne meurt pas "
       "et rejoint la meute en gardant sa carte et ses pouvoirs. Si le Salvateur la protégeait, "
       "l’infection est perdue. La Sorcière apprend toujours la victime."),
)

"""The Witch's words (RULES.md §3), in French: the catalogs translate them."""
from flask_babel import lazy_gettext as _l

WORDS = {
    "role.witch": _l("Sorcière"),
    "role_a.witch": _l("la Sorcière"),
    "role_help.witch": _l("Une potion de vie, une potion de mort, pour toute la partie."),
    "step.witch": _l("La Sorcière se réveille…"),
    "limit.witch": _l("Sorcière"),
    "prompt.witch": _l("Sorcière, que fais-tu ?"),
    "prompt.witch.poison": _l("Choisis qui empoisonner"),
    "btn.witch.save": _l("Sauver {name}"),
    "btn.witch.poison": _l("Empoisonner quelqu’un…"),
    "witch.victim": _l("Cette nuit, les loups ont choisi {name}."),
    "witch.no_victim": _l("Cette nuit, les loups n’ont tué personne."),
    "witch.potions": _l("Potion de vie : {life} · potion de mort : {death}"),
    "potion.yes": _l("disponible"),
    "potion.no": _l("utilisée"),
    "ev.witch_save": _l("Tu as sauvé {name}."),
    "ev.witch_poison": _l("Tu as empoisonné {name}."),
    "tl.witch_save": _l("La Sorcière sauve {name}."),
    "tl.witch_poison": _l("La Sorcière empoisonne {name}."),
    "btn.witch.done": _l("J’ai fini"),
}

# Its section of the rules page (/rules#role-witch), one paragraph each.
RULES = (
    _l("Elle a deux potions pour toute la partie, chacune utilisable une fois : la potion de vie "
       "et la potion de mort."),
    _l("Chaque nuit, après les loups, elle apprend leur victime (ou qu’il n’y en a pas). Elle peut "
       "la sauver avec la potion de vie, elle-même comprise, et empoisonner n’importe quel joueur "
       "vivant avec la potion de mort : les deux la même nuit, l’une, ou aucune."),
    _l("Son tour a lieu tant qu’elle vit, même sans potion, et finit quand elle a terminé : sa "
       "durée ne dit rien de ce qu’il lui reste."),
)

"""The Elder's words (RULES-BOX B3.1), in French: the catalogs translate them."""
from flask_babel import lazy_gettext as _l

WORDS = {
    # the end's timeline: the night the wolves' bite took his extra life, not him
    "tl.elder_life": _l("L’Ancien ({name}) survit à l’attaque des loups : il perd sa vie en réserve."),
    "role.elder": _l("Ancien"),
    "role_a.elder": _l("l’Ancien"),
    "role_help.elder": _l("Les loups doivent t’attaquer deux fois pour te tuer. Si le village te tue "
                          "(vote, poison, tir du Chasseur), les villageois perdent leurs pouvoirs."),
    "ev.elder_revenge": _l("{name} était l’Ancien, tué par le village : les villageois perdent leurs pouvoirs."),
    "tl.elder_revenge": _l("La vengeance de l’Ancien ({name}) : les villageois perdent leurs pouvoirs."),
}

# Its section of the rules page (/rules#role-elder), one paragraph each.
RULES = (
    _l("Villageois. La première attaque des loups qui devrait le tuer ne le tue pas : personne ne "
       "l’apprend, pas même lui. La seconde le tue. Une protection du Salvateur ou la potion de vie "
       "ne comptent pas comme une attaque."),
    _l("Le poison, le tir du Chasseur, le chagrin, le vote et le Loup-Garou Blanc le tuent tout de suite."),
    _l("Si le village le tue (un vote, le poison de la Sorcière, le tir du Chasseur), tous les joueurs du "
       "camp du village perdent leurs pouvoirs pour le reste de la partie ; tout le monde l’apprend."),
)

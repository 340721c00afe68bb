"""The Wild Child's words (RULES-BOX B3.6), in French: the catalogs translate them."""
from flask_babel import lazy_gettext as _l

WORDS = {
    "role.wild_child": _l("Enfant sauvage"),
    "role_a.wild_child": _l("l’Enfant sauvage"),
    "role_help.wild_child": _l("La première nuit, tu choisis un modèle. S’il meurt, tu deviens un loup-garou "
                               "et chasses avec la meute."),
    "step.wild_child": _l("L’Enfant sauvage choisit son modèle"),
    "limit.wild_child": _l("Enfant sauvage"),
    "prompt.wild_child.model": _l("Choisis ton modèle"),
    "ev.wild_child_model": _l("{name} est ton modèle."),
    "ev.wild_child_turned": _l("Ton modèle, {name}, n’est plus : tu rejoins la meute des loups."),
    "tl.wild_child_model": _l("L’Enfant sauvage prend {name} pour modèle."),
    "tl.wild_child_turned": _l("L’Enfant sauvage rejoint la meute : son modèle, {name}, n’est plus."),
}

# Its section of the rules page (/rules#role-wild_child), one paragraph each.
RULES = (
    _l("Villageois tant que son modèle vit. La première nuit, après Cupidon, il choisit en secret un "
       "modèle parmi les autres joueurs."),
    _l("Si le modèle meurt, de quelque façon que ce soit, il rejoint la meute au même moment : il lit les "
       "loups et chasse avec eux dès la nuit suivante, et gagne avec eux. Sa carte reste la sienne."),
)

"""The Wolf-Hound's words (RULES-BOX B3.13), in French: the catalogs translate them."""
from flask_babel import lazy_gettext as _l

WORDS = {
    "role.wolf_hound": _l("Chien-Loup"),
    "role_a.wolf_hound": _l("le Chien-Loup"),
    "role_help.wolf_hound": _l("La première nuit, tu choisis pour toujours : rester un simple villageois, ou "
                               "rejoindre les loups."),
    "step.wolf_hound": _l("Le Chien-Loup choisit son camp…"),
    "limit.wolf_hound": _l("Chien-Loup"),
    "prompt.wolf_hound": _l("Choisis ton camp, pour toute la partie"),
    "btn.wolf_hound.village": _l("Rester au village"),
    "btn.wolf_hound.wolves": _l("Rejoindre les loups"),
    "ev.wolf_hound_village": _l("Tu restes au coin du feu : tu joues pour le village."),
    "ev.wolf_hound_wolves": _l("Tu rejoins la meute : tu chasses avec les loups dès cette nuit."),
    "tl.wolf_hound_village": _l("Le Chien-Loup reste au village."),
    "tl.wolf_hound_wolves": _l("Le Chien-Loup rejoint les loups."),
}

RULES = (
    _l("La première nuit, après l’Enfant sauvage, il choisit pour toute la partie d’être un villageois "
       "ou un loup-garou ; s’il ne choisit pas, il reste au village."),
    _l("Loup, il rejoint la meute aussitôt et chasse dès cette nuit ; sa carte reste « Chien-Loup », et "
       "personne d’autre que la meute ne connaît son choix."),
)

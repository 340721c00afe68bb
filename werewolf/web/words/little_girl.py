"""The words of the Little Girl, in French: the catalogs translate them."""
from flask_babel import lazy_gettext as _l

from ..facts import facts

WORDS = {
    "role.little_girl": _l("Petite Fille"),
    "role_a.little_girl": _l("la Petite Fille"),
    "role_help.little_girl": _l("Pendant le tour des loups, tu peux ouvrir les yeux et lire leurs messages, sans leurs noms. "
                                "Mais un loup peut te voir…"),
    "prompt.little_girl.spy": _l("Les loups parlent. Ouvrir les yeux ?"),
    "prompt.little_girl.hide": _l("Tu espionnes les loups…"),
    "btn.little_girl.spy": _l("👀 Espionner"),
    "btn.little_girl.hide": _l("🙈 Fermer les yeux"),
    "ev.little_girl_open": _l("Tu ouvres les yeux."),
    "ev.little_girl_closed": _l("Tu fermes les yeux."),
    "ev.little_girl_caught_me": _l("Un loup t’a vue ! Tu fermes les yeux : la meute sait qui tu es."),
    "ev.little_girl_caught": _l("Vous avez surpris la Petite Fille : {name}."),
    "tl.little_girl_open": _l("La Petite Fille ({name}) ouvre les yeux."),
    "tl.little_girl_closed": _l("La Petite Fille ({name}) ferme les yeux."),
    "tl.little_girl_caught": _l("Les loups surprennent la Petite Fille ({name})."),
    "chat.a_wolf": _l("Un loup"),
}

# Its section of the rules page (/rules#role-little_girl), one paragraph each.
RULES = (
    _l("Elle n’a pas de tour à elle : pendant celui des loups, elle peut ouvrir les yeux (ou les "
       "refermer) et lire tout ce que les loups écrivent, sans savoir qui l’écrit. Elle n’y est pas "
       "obligée, et son choix ne change rien à la durée du tour."),
    _l("Chaque nuit, un tirage décide si un loup la surprend quand elle ouvre les yeux (%(risk)s %% par "
       "défaut). Surprise, elle ferme les yeux : les loups savent qui elle est et peuvent la "
       "dévorer, ou garder leur victime. Le Salvateur et la Sorcière peuvent la sauver.", risk=facts()["risk"]),
)

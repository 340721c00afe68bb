"""The Pied Piper's words (RULES-BOX B3.4), in French: the catalogs translate them."""
from flask_babel import lazy_gettext as _l

WORDS = {
    "role.piper": _l("Joueur de flûte"),
    "role_a.piper": _l("le Joueur de flûte"),
    "role_help.piper": _l("Tu joues seul : chaque nuit, tu charmes deux joueurs. Tu gagnes quand tous les "
                          "autres vivants sont charmés."),
    "step.piper": _l("Le Joueur de flûte charme"),
    "limit.piper": _l("Joueur de flûte"),
    "prompt.piper.charm": _l("Choisis qui charmer cette nuit"),
    "ev.piper_charm": _l("Tu charmes {names} : le charme prendra à l’aube."),
    "ev.charmed": _l("Les charmés en vie : {names}."),
    "tl.piper_charm": _l("Le Joueur de flûte charme {names}."),
    "winner.piper": _l("Le Joueur de flûte a gagné !"),
    "why.piper": _l("Tous les autres survivants sont charmés."),
}

# Its section of the rules page (/rules#role-piper), one paragraph each.
RULES = (
    _l("Il joue seul. Chaque nuit, après la Sorcière, il choisit deux joueurs vivants qui ne sont pas "
       "encore charmés (ou le seul qui reste). Le charme prend à l’aube si lui et sa cible sont en vie."),
    _l("Les charmés apprennent qui est charmé, jamais les cartes. Il gagne seul quand tous les autres "
       "vivants sont charmés ; tant qu’il vit, ni les loups ni le village ne peuvent gagner."),
)

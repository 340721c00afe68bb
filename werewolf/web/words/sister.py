"""The Two Sisters' words (RULES-BOX B3.12), in French: the catalogs translate them."""
from flask_babel import lazy_gettext as _l

WORDS = {
    "role.sister": _l("Sœur"),
    "role_a.sister": _l("une Sœur"),
    "role_help.sister": _l("Vous êtes deux Sœurs et vous vous connaissez. Une nuit sur deux, vous vous "
                           "réveillez ensemble pour vous concerter en secret."),
    "step.sisters": _l("Les Sœurs se concertent…"),
    "limit.sisters": _l("Sœurs"),
    "btn.sisters.done": _l("Nous avons fini"),
    "channel.sisters": _l("Sœurs"),
    "ev.sister": _l("Ta sœur est {names}."),
    "ev.sister_alone": _l("L’autre carte de Sœur est restée au milieu : personne ne partage ton secret."),
}

RULES = (
    _l("Deux cartes, du camp du village. Les deux Sœurs se connaissent dès la distribution (après le "
       "Voleur s’il y en a un) et voient la carte l’une de l’autre."),
    _l("Les nuits impaires, après le Chien-Loup et avant la Voyante, elles se réveillent ensemble et "
       "s’écrivent dans leur propre canal, que personne d’autre ne lit. Dès qu’une carte de Sœur est "
       "révélée morte, elles ne se réveillent plus ; la survivante garde l’historique."),
)

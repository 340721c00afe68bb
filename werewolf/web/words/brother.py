"""The Three Brothers' words (RULES-BOX B3.12), in French: the catalogs translate them."""
from flask_babel import lazy_gettext as _l

WORDS = {
    "role.brother": _l("Frère"),
    "role_a.brother": _l("un Frère"),
    "role_help.brother": _l("Vous êtes trois Frères et vous vous connaissez. Une nuit sur deux, vous vous "
                            "réveillez ensemble pour vous concerter en secret."),
    "step.brothers": _l("Les Frères se concertent…"),
    "limit.brothers": _l("Frères"),
    "btn.brothers.done": _l("Nous avons fini"),
    "channel.brothers": _l("Frères"),
    "ev.brother": _l("Tes frères sont {names}."),
    "ev.brother_alone": _l("Les autres cartes de Frère sont restées au milieu : personne ne partage ton secret."),
}

RULES = (
    _l("Trois cartes, du camp du village. Les trois Frères se connaissent dès la distribution (après "
       "le Voleur s’il y en a un) et voient la carte les uns des autres."),
    _l("Les nuits impaires, après les Sœurs et avant la Voyante, ils se réveillent ensemble et "
       "s’écrivent dans leur propre canal, que personne d’autre ne lit. Dès qu’une carte de Frère est "
       "révélée morte, ils ne se réveillent plus."),
)

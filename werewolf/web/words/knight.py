"""The Rusty Sword Knight's words (RULES-BOX B3.9), in French: the catalogs translate them."""
from flask_babel import lazy_gettext as _l

WORDS = {
    "role.knight": _l("Chevalier à l’épée rouillée"),
    "role_a.knight": _l("le Chevalier à l’épée rouillée"),
    "role_help.knight": _l("Si les loups te dévorent, ton épée rouillée donne le tétanos au premier loup "
                           "à ta gauche : il mourra la nuit suivante."),
    "tl.knight_rust": _l("L’épée rouillée du Chevalier blesse {name}, qui mourra la nuit suivante."),
}

RULES = (
    _l("Du camp du village, sans réveil. Dévoré par la meute, il donne le tétanos au premier membre de "
       "la meute rencontré en partant de sa gauche (les sièges suivants, les morts sautés)."),
    _l("Le loup blessé joue normalement, puis meurt la nuit suivante, annoncé à l’aube comme les "
       "autres morts ; rien ne le protège. Personne ne l’apprend avant la fin. Mort autrement (poison, "
       "vote, tir), ou sans pouvoir, le Chevalier ne blesse personne."),
)

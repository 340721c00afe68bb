"""The Raven's words (RULES-BOX B3.10), in French: the catalogs translate them."""
from flask_babel import lazy_gettext as _l

WORDS = {
    # under a round's result: the votes of the count that are no ballot
    "ev.vote_raven": _l("Le Corbeau a ajouté {votes} voix contre {name}."),
    "role.raven": _l("Corbeau"),
    "role_a.raven": _l("le Corbeau"),
    "role_help.raven": _l("Chaque nuit, tu peux désigner un joueur : il sera annoncé à l’aube et aura deux "
                          "voix contre lui au vote du jour."),
    "step.raven": _l("Le Corbeau se réveille…"),
    "limit.raven": _l("Corbeau"),
    "prompt.raven.mark": _l("Qui désigner ? Deux voix de plus compteront contre cette personne au vote."),
    "btn.raven.done": _l("Ne désigner personne"),
    "ev.raven_mark": _l("Tu désignes {name} : deux voix contre lui au vote de demain."),
    "tl.raven_mark": _l("Le Corbeau désigne {name}."),
    "ev.raven_accused": _l("Le Corbeau a désigné {name} : deux voix contre lui au vote d’aujourd’hui."),
}

RULES = (
    _l("Du camp du village. Chaque nuit, en dernier, il peut désigner un joueur vivant, lui-même "
       "compris. À l’aube, si ce joueur est en vie, tout le monde l’apprend (jamais qui est le Corbeau)."),
    _l("Au vote du jour, le désigné a deux voix de plus contre lui, qui comptent comme des voix : sans "
       "aucun bulletin, il est éliminé. Pas au second tour ni au revote ; s’il est au bûcher de "
       "l’Homme-Hibou, les deux voix vont au bûcher."),
)

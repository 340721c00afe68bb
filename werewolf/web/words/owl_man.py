"""The words of the Owl-Man, in French: the catalogs translate them."""
from flask_babel import lazy_gettext as _l

WORDS = {
    "role.owl_man": _l("Homme-Hibou"),
    "role_a.owl_man": _l("l’Homme-Hibou"),
    "role_help.owl_man": _l("Chaque nuit, tu peux envoyer un joueur au bûcher du lendemain. "
                            "Le village vote pour choisir l’autre candidat."),
    "step.owl": _l("L’Homme-Hibou se réveille…"),
    "limit.owl": _l("Homme-Hibou"),
    "prompt.owl.designate": _l("Qui envoyer au bûcher demain ?"),
    "btn.owl.done": _l("J’ai fini"),
    "ev.owl_designate": _l("Tu envoies {name} au bûcher."),
    "ev.owl_designate_none": _l("Tu n’envoies personne au bûcher."),
    "ev.owl_nominee": _l("L’Homme-Hibou envoie {name} au bûcher. Votez pour le second candidat."),
    "tl.owl_designate": _l("L’Homme-Hibou désigne {name}."),
    "tl.owl_nominee": _l("L’Homme-Hibou envoie {name} au bûcher."),
    "tl.owl_designate_none": _l("L’Homme-Hibou ne désigne personne."),
    "step.stake": _l("Le bûcher : qui des candidats est éliminé ?"),
    "limit.stake": _l("Bûcher"),
    "prompt.stake.cast": _l("Le bûcher : choisis un candidat"),
}

# Its section of the rules page (/rules#role-owl_man), one paragraph each.
RULES = (
    _l("Chaque nuit, après le Salvateur, il peut désigner un joueur vivant (lui-même permis, "
       "jamais son amoureux), et changer d’avis : le dernier nom compte."),
    _l("À l’aube, si ce joueur est vivant, tout le monde apprend qu’il est envoyé au bûcher, sans "
       "savoir qui l’a désigné. Le vote du jour élit alors le second candidat, puis le bûcher "
       "départage les candidats (le Capitaine compte double, l’égalité se tranche comme au vote)."),
)

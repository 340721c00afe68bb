"""The words of the Captain, in French: the catalogs translate them."""
from flask_babel import lazy_gettext as _l

WORDS = {
    "step.succession": _l("Le Capitaine ({name}) désigne son successeur…"),
    "step.election": _l("Élection du Capitaine"),
    "step.tiebreak": _l("Égalité : le Capitaine ({name}) tranche…"),
    "prompt.succession.name": _l("Désigne ton successeur"),
    "prompt.election.vote": _l("Vote pour le Capitaine"),
    "prompt.tiebreak.choose": _l("Égalité : choisis qui est éliminé"),
    "recap.election": _l("Élection du Capitaine, jour {n}"),
    "ev.succession": _l("{previous} nomme {name} Capitaine."),
    "ev.succession_none": _l("Le village n’a plus de Capitaine."),
    "ev.election_result": _l("{name} devient Capitaine."),
    "ev.election_none": _l("Pas de Capitaine : personne n’a voté."),
    "ev.tiebreak": _l("Le Capitaine désigne {name}."),
    "ev.tiebreak_none": _l("Le Capitaine n’a pas tranché : personne n’est éliminé."),
    "limit.succession": _l("Successeur du Capitaine"),
    "limit.election": _l("Élection du Capitaine"),
    "limit.tiebreak": _l("Égalité"),
    "ev.succession_testament": _l("{previous} nomme {name} Capitaine, selon son testament."),
}

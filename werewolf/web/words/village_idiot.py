"""The Village Idiot's words (RULES-BOX B3.2), in French: the catalogs translate them."""
from flask_babel import lazy_gettext as _l

WORDS = {
    # the round's result when it falls on him: a pardon follows, not an elimination
    "ev.vote_pardoned": _l("Le village vote contre {name}…"),
    "role.village_idiot": _l("Idiot du village"),
    "role_a.village_idiot": _l("l’Idiot du village"),
    "role_help.village_idiot": _l("Si le village vote contre toi, tu es gracié : ta carte est montrée et tu "
                                  "ne votes plus. Les loups peuvent toujours te dévorer."),
    "ev.idiot_pardoned": _l("{name} est l’Idiot du village : gracié, il reste en vie mais ne vote plus."),
    "tl.idiot_pardoned": _l("L’Idiot du village ({name}) est gracié."),
}

# Its section of the rules page (/rules#role-village_idiot), one paragraph each.
RULES = (
    _l("Villageois. La première fois qu’un vote du village devrait l’éliminer, il reste en vie : sa carte "
       "est montrée à tous et il ne vote plus. S’il était Capitaine, il perd son titre et nomme son successeur."),
    _l("Un second vote l’élimine. Les loups, le poison, le chasseur et le chagrin le tuent comme n’importe qui. "
       "Gracié, il meurt avec l’Ancien si celui-ci meurt."),
)

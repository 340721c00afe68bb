"""The words of the Possessed, in French: the catalogs translate them."""
from flask_babel import lazy_gettext as _l

WORDS = {
    "role.possessed": _l("Possédé"),
    "role_a.possessed": _l("le Possédé"),
    "role_help.possessed": _l("Tu es du côté des loups sans savoir qui ils sont, et ils ne te connaissent pas. "
                              "Tu gagnes avec eux, même après ta mort."),
}

# Its section of the rules page (/rules#role-possessed), one paragraph each.
RULES = (
    _l("Un villageois du côté des loups : il gagne quand les loups gagnent, même s’il est mort. Il ne "
       "sait pas qui sont les loups, et les loups ne le connaissent pas : ils peuvent le dévorer."),
    _l("Vivant, il compte avec les loups : ils gagnent quand il ne reste que des loups et lui. Sans "
       "aucun loup en vie, le village gagne et il perd."),
)

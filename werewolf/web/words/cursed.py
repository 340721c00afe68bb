"""The words of the Cursed, in French: the catalogs translate them."""
from flask_babel import lazy_gettext as _l

WORDS = {
    "role.cursed": _l("Maudit"),
    "role_a.cursed": _l("le Maudit"),
    "role_help.cursed": _l("Villageois tant que les loups ne te mordent pas. "
                           "Mordu, tu ne meurs pas : tu deviens Loup-Garou."),
    "role_was.cursed": _l("Loup-Garou (Maudit mordu)"),
    "ev.cursed_bitten": _l("La morsure des loups te change : tu es désormais Loup-Garou."),
    "tl.cursed_bitten": _l("Les loups ont mordu le Maudit ({name}) : il devient Loup-Garou."),
}

# Its section of the rules page (/rules#role-cursed), one paragraph each.
RULES = (
    _l("Villageois tant que les loups ne le mordent pas. Si les loups le choisissent (et que le "
       "Salvateur ne le protège pas), il ne meurt pas : il devient Loup-Garou sur-le-champ, rejoint "
       "la meute et son canal, et la nuit s’achève sans mort de son fait."),
    _l("La Sorcière apprend tout de même que les loups l’ont choisi. À sa mort, sa carte se montre "
       "« Loup-Garou (Maudit mordu) ». Il gagne avec le camp qui est le sien à la fin."),
)

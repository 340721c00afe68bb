"""The rules page's words: how a game runs and every role, written from RULES.md.

The page lists the engine's own roles and steps (engine.ROLES, engine.STEPS and their
default limits), so a role added to the engine shows up here; its text is its words file's
RULES (werewolf/web/words/<id>.py), or below for the cards not moved there yet; until it is
written the role is listed with its name and a note that its description is still to come.
"""
from babel.lists import format_list
from flask_babel import get_locale
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from .. import engine
from . import words
from .strings import facts

ROLE_TEXT = {
    "thief": [
        _l("Avec le Voleur, deux cartes de plus sont distribuées : elles restent face cachée au milieu."),
        _l("La première nuit, il les voit et peut prendre l’une d’elles en échange de la sienne ; si "
           "les deux sont des loups, il doit en prendre une. Personne d’autre ne sait ce qu’il a pris."),
    ],
    "guard": [
        _l("Chaque nuit, il protège un joueur vivant (lui-même permis) de l’attaque des loups, mais "
           "jamais le même deux nuits de suite."),
        _l("La protection n’arrête que les loups : ni le poison, ni le tir du Chasseur, ni le chagrin. "
           "Lui seul sait qui il protège."),
    ],
    "possessed": [
        _l("Un villageois du côté des loups : il gagne quand les loups gagnent, même s’il est mort. Il ne "
           "sait pas qui sont les loups, et les loups ne le connaissent pas : ils peuvent le dévorer."),
        _l("Vivant, il compte avec les loups : ils gagnent quand il ne reste que des loups et lui. Sans "
           "aucun loup en vie, le village gagne et il perd."),
    ],
    "cursed": [
        _l("Villageois tant que les loups ne le mordent pas. Si les loups le choisissent (et que le "
           "Salvateur ne le protège pas), il ne meurt pas : il devient Loup-Garou sur-le-champ, rejoint "
           "la meute et son canal, et la nuit s’achève sans mort de son fait."),
        _l("La Sorcière apprend tout de même que les loups l’ont choisi. À sa mort, sa carte se montre "
           "« Loup-Garou (Maudit mordu) ». Il gagne avec le camp qui est le sien à la fin."),
    ],
    "jester": [
        _l("Il joue seul. Éliminé par le vote du village (l’égalité tranchée par le Capitaine comprise), "
           "il gagne aussitôt, seul, et la partie s’arrête. Dévoré, empoisonné ou abattu, il meurt "
           "comme un autre."),
        _l("Tant qu’il vit, ni les loups ni le village ne peuvent gagner. Si plus aucun loup n’est en "
           "vie et que trois jours passent sans aucune mort, la partie s’arrête sans vainqueur."),
    ],
    "little_girl": [
        _l("Elle n’a pas de tour à elle : pendant celui des loups, elle peut ouvrir les yeux (ou les "
           "refermer) et lire tout ce que les loups écrivent, sans savoir qui l’écrit. Elle n’y est pas "
           "obligée, et son choix ne change rien à la durée du tour."),
        _l("Chaque nuit, un tirage décide si un loup la surprend quand elle ouvre les yeux (%(risk)s %% par "
           "défaut). Surprise, elle ferme les yeux : les loups savent qui elle est et peuvent la "
           "dévorer, ou garder leur victime. Le Salvateur et la Sorcière peuvent la sauver.", risk=facts()["risk"]),
    ],
    "owl_man": [
        _l("Chaque nuit, après le Salvateur, il peut désigner un joueur vivant (lui-même permis, "
           "jamais son amoureux), et changer d’avis : le dernier nom compte."),
        _l("À l’aube, si ce joueur est vivant, tout le monde apprend qu’il est envoyé au bûcher, sans "
           "savoir qui l’a désigné. Le vote du jour élit alors le second candidat, puis le bûcher "
           "départage les candidats (le Capitaine compte double, l’égalité se tranche comme au vote)."),
    ],
    "freemason": [
        _l("Deux cartes de Francs-Maçons : chacun apprend qui est l’autre dès la distribution (après "
           "le Voleur s’il y en a un). Si l’autre carte est restée au milieu, il est seul."),
        _l("Ils n’ont pas de canal à eux : ils parlent au village comme tout le monde."),
    ],
    "medium": [
        _l("Tant qu’il vit, il lit le canal des morts et peut y écrire, de jour comme de nuit ; ses "
           "messages portent son nom. Les autres vivants n’en voient rien."),
        _l("Il lui est interdit de citer le cimetière au village : c’est une règle d’honneur, le "
           "serveur ne la vérifie pas."),
    ],
    "werewolf": [
        _l("Chaque nuit, les Loups-Garous se réveillent ensemble : dès la première nuit, ils savent "
           "qui sont les autres loups et se parlent dans leur propre canal."),
        _l("Chaque loup vivant désigne un joueur vivant (un loup aussi), et peut changer d’avis ou "
           "retirer son choix. Dès que tous désignent le même joueur, il est la victime. À la fin du "
           "temps, c’est le joueur le plus désigné (au hasard entre les ex æquo) ; sans aucune "
           "désignation, personne n’est dévoré."),
        _l("Le jour, ils se cachent parmi les villageois. Ils gagnent quand il ne reste plus que des loups."),
    ],
    "villager": [
        _l("Aucun pouvoir la nuit : il dort. Le jour, il écoute, soupçonne, débat et vote."),
        _l("Le village (tous ceux qui ne sont pas loups) gagne quand plus aucun loup n’est en vie."),
    ],
    "seer": [
        _l("Chaque nuit, elle choisit un joueur vivant autre qu’elle-même et découvre sa carte."),
        _l("Personne d’autre ne l’apprend : à elle d’aider le village sans se faire repérer par les loups."),
    ],
    "witch": [
        _l("Elle a deux potions pour toute la partie, chacune utilisable une fois : la potion de vie "
           "et la potion de mort."),
        _l("Chaque nuit, après les loups, elle apprend leur victime (ou qu’il n’y en a pas). Elle peut "
           "la sauver avec la potion de vie, elle-même comprise, et empoisonner n’importe quel joueur "
           "vivant avec la potion de mort : les deux la même nuit, l’une, ou aucune."),
        _l("Son tour a lieu tant qu’elle vit, même sans potion, et finit quand elle a terminé : sa "
           "durée ne dit rien de ce qu’il lui reste."),
    ],
    "hunter": [
        _l("Quand il meurt, de nuit comme de jour et quelle qu’en soit la cause, il tire sur un joueur "
           "vivant, qui meurt aussi."),
        _l("S’il ne tire pas avant la fin du temps, personne ne meurt."),
    ],
    "cupid": [
        _l("La première nuit seulement, il désigne deux joueurs vivants (lui-même permis) : ils "
           "deviennent amoureux. Chacun apprend le nom de l’autre, pas sa carte."),
        _l("S’il ne choisit pas à temps, il n’y a pas d’amoureux."),
    ],
}


def roles() -> list[dict]:
    """Every role of the engine, in the engine's order, with its words (or none yet)."""
    return [{"id": role, "emoji": engine.registry.ROLES[role].emoji,
             "paragraphs": ROLE_TEXT.get(role) or words.rules_section(role)}
            for role in engine.ROLES]


def wolves() -> str:
    """How many wolves by table size (RULES.md §1), in words, from the engine's catalog."""
    ranges = []  # [wolves, fewest players, most players]
    for players, count in sorted(facts()["wolf_table"].items()):
        if ranges and ranges[-1][0] == count:
            ranges[-1][2] = players
        else:
            ranges.append([count, players, players])
    said = [_("%(wolves)s de %(low)s à %(high)s joueurs", wolves=count, low=low, high=high) for count, low, high in ranges]
    return _("Loups : %(ranges)s.", ranges=format_list(said, locale=get_locale()))


def steps() -> list[dict]:
    return [{"id": step, "limit": engine.DEFAULT_LIMITS[step]} for step in engine.STEPS]

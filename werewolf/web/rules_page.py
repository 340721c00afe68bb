"""The rules page's words: how a game runs and every role, written from RULES.md.

The page lists the engine's own roles and steps (engine.ROLES, engine.STEPS and their
default limits), so a role added to the engine shows up here; until its text is written
below it is listed with its name and a note that its description is still to come.
"""
from flask_babel import lazy_gettext as _l

from .. import engine

ROLE_EMOJI = {"werewolf": "🐺", "villager": "🌾", "seer": "🔮", "witch": "🧪", "hunter": "🏹", "cupid": "💘"}

ROLE_TEXT = {
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
    return [{"id": role, "emoji": ROLE_EMOJI.get(role, "🃏"), "paragraphs": ROLE_TEXT.get(role, [])}
            for role in engine.ROLES]


def steps() -> list[dict]:
    return [{"id": step, "limit": engine.DEFAULT_LIMITS[step]} for step in engine.STEPS]

"""The languages' catalog locales, for the pages (web/i18n.py) and the pushes sent outside
any request (push.py) alike."""

CATALOG_LOCALES = {"zh": "zh_Hant"}  # the others are their own code; Chinese is Traditional (RULES-VARIANTS A10)

import os

DEFAULT_MAX_TURNS = int(os.getenv("AGENT_MAX_TURNS", "20"))

# Modelled on marvin@3.2.7 marvin/settings.py:132-135.
class Settings:
    max_agent_turns: int | None = 100


settings = Settings()

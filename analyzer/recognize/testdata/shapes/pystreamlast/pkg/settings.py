# Modelled on qwen-agent==0.0.34 qwen_agent/settings.py:24.
import os

MAX_LLM_CALL_PER_RUN = int(os.getenv('PKG_MAX_LLM_CALL_PER_RUN', 20))

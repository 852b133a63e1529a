from .loop import run_loop
from .other import unrelated

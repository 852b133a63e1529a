from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from . import functions
    from . import tools

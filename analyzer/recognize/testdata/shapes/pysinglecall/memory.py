# A single-shot agent's memory (modelled on atomic-agents==1.1.11
# atomic_agents/lib/components/agent_memory.py:41-129): initialize_turn mints the turn id.
import uuid


class AgentMemory:
    def __init__(self, max_messages=None):
        self.history = []
        self.max_messages = max_messages
        self.current_turn_id = None

    def initialize_turn(self):
        self.current_turn_id = str(uuid.uuid4())

    def add_message(self, role, content):
        if self.current_turn_id is None:
            self.initialize_turn()
        self.history.append({"role": role, "content": content, "turn_id": self.current_turn_id})
        self._manage_overflow()

    def _manage_overflow(self):
        if self.max_messages is not None:
            while len(self.history) > self.max_messages:
                self.history.pop(0)

    def get_history(self):
        out = []
        for message in self.history:
            out.append({"role": message["role"], "content": message["content"]})
        return out

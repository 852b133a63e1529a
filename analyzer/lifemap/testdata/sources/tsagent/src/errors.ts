export class AgentsError extends Error {}
export class MaxTurnsExceededError extends AgentsError {}

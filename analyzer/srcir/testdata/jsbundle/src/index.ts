export { Agent, run, runOnce, DEFAULT_MAX_TURNS } from "./agent";
export { BaseAgent } from "./base";
export { MaxTurnsError } from "./tools";

// Untyped receivers named after their class: loop.tick() runs StepLoop.tick and
// runner.tick() TaskRunner.tick (two classes define tick; the names tell them apart).
class StepLoop {
  tick() {
    return true;
  }
}
class TaskRunner {
  tick() {
    return [];
  }
}
export function drive(loop, runner) {
  while (loop.tick()) runner.tick();
}

/**
 * One cycle per strongly connected component of a directed graph (Tarjan's algorithm, iterative so long
 * chains cannot overflow the stack), each as a path `[a, b, …, a]` starting at the component's first node
 * in `nodes` order. Linear in the size of the graph.
 */
export function findCycles(nodes: readonly string[], edges: (node: string) => readonly string[]): string[][] {
  const order = new Map(nodes.map((node, index) => [node, index]));
  const index = new Map<string, number>();
  const lowLink = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let counter = 0;
  for (const root of nodes) {
    if (index.has(root)) continue;
    const frames: { node: string; targets: readonly string[]; next: number }[] = [];
    const enter = (node: string) => {
      index.set(node, counter);
      lowLink.set(node, counter);
      counter++;
      stack.push(node);
      onStack.add(node);
      frames.push({ node, targets: edges(node).filter((target) => order.has(target)), next: 0 });
    };
    enter(root);
    while (frames.length > 0) {
      const frame = frames[frames.length - 1] as (typeof frames)[number];
      if (frame.next < frame.targets.length) {
        const target = frame.targets[frame.next++] as string;
        if (!index.has(target)) enter(target);
        else if (onStack.has(target)) {
          lowLink.set(frame.node, Math.min(lowLink.get(frame.node) ?? 0, index.get(target) ?? 0));
        }
        continue;
      }
      frames.pop();
      const parent = frames[frames.length - 1];
      if (parent)
        lowLink.set(parent.node, Math.min(lowLink.get(parent.node) ?? 0, lowLink.get(frame.node) ?? 0));
      if (lowLink.get(frame.node) !== index.get(frame.node)) continue;
      const component: string[] = [];
      for (let member = stack.pop(); member !== undefined; member = stack.pop()) {
        onStack.delete(member);
        component.push(member);
        if (member === frame.node) break;
      }
      const selfLoop = component.length === 1 && edges(frame.node).includes(frame.node);
      if (component.length > 1 || selfLoop) components.push(component);
    }
  }
  return components
    .map((component) => cyclePath(component, edges, order))
    .sort((left, right) => (order.get(left[0] as string) ?? 0) - (order.get(right[0] as string) ?? 0));
}

/** A shortest cycle through the component's first node, found by breadth-first search inside it. */
function cyclePath(
  component: string[],
  edges: (node: string) => readonly string[],
  order: Map<string, number>,
): string[] {
  const members = new Set(component);
  const start = [...component].sort(
    (left, right) => (order.get(left) ?? 0) - (order.get(right) ?? 0),
  )[0] as string;
  const parent = new Map<string, string>();
  const queue = [start];
  for (let head = 0; head < queue.length; head++) {
    const node = queue[head] as string;
    for (const target of edges(node)) {
      if (!members.has(target)) continue;
      if (target === start) {
        const path = [node];
        for (let step = parent.get(node); step !== undefined; step = parent.get(step)) path.push(step);
        return [...path.reverse(), start];
      }
      if (!parent.has(target) && target !== start) {
        parent.set(target, node);
        queue.push(target);
      }
    }
  }
  return [start, start];
}

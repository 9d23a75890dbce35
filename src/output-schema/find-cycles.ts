/**
 * Strongly connected components (Tarjan), made deterministic the way BAML makes them: nodes are visited in
 * ascending order, successors sorted, each cycle rotated to start at its smallest node, and cycles sorted by
 * their first node. Nodes are declaration indexes, so the order of hoisted recursive types matches BAML.
 * Only real cycles are returned: components of several nodes, or one node that points at itself.
 */
export function findCycles(successors: ReadonlyArray<ReadonlySet<number>>): number[][] {
  const order = new Array<number>(successors.length).fill(-1);
  const lowLink = new Array<number>(successors.length).fill(-1);
  const onStack = new Array<boolean>(successors.length).fill(false);
  const stack: number[] = [];
  const cycles: number[][] = [];
  let counter = 0;

  const connect = (node: number): void => {
    order[node] = counter;
    lowLink[node] = counter;
    counter++;
    stack.push(node);
    onStack[node] = true;
    const next = [...(successors[node] ?? [])].sort((a, b) => a - b);
    for (const successor of next) {
      if (order[successor] === -1) {
        connect(successor);
        lowLink[node] = Math.min(lowLink[node] ?? 0, lowLink[successor] ?? 0);
      } else if (onStack[successor]) {
        lowLink[node] = Math.min(lowLink[node] ?? 0, order[successor] ?? 0);
      }
    }
    if (lowLink[node] !== order[node]) return;
    const component: number[] = [];
    for (;;) {
      const member = stack.pop();
      if (member === undefined) break;
      onStack[member] = false;
      component.push(member);
      if (member === node) break;
    }
    component.reverse();
    const isCycle = component.length > 1 || successors[node]?.has(node) === true;
    if (!isCycle) return;
    const smallest = component.indexOf(Math.min(...component));
    cycles.push([...component.slice(smallest), ...component.slice(0, smallest)]);
  };

  for (let node = 0; node < successors.length; node++) {
    if (order[node] === -1) connect(node);
  }
  return cycles.sort((a, b) => (a[0] ?? 0) - (b[0] ?? 0));
}

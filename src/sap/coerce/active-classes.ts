import type { JsonishNode } from "../lenient/jsonish-node.js";

/**
 * The classes being read right now, each with the node it is read from, innermost last: the recursion
 * guard for a single-field class that wraps itself (its field read from the same node as the class
 * again). A stack rather than a map per node: coercers hand a node to inner types or go down to its
 * children, never back up, so the frames reading one node are the innermost ones, and a look stops at
 * the first frame of another node (the same reasoning as the context's own guard). No allocation per
 * class read, where a map would hash each node.
 */
export class ActiveClasses {
  private readonly nodes: JsonishNode[] = [];
  private readonly names: string[] = [];

  /** Whether class `name` is being read from `node` already. */
  has(node: JsonishNode, name: string): boolean {
    for (let at = this.nodes.length - 1; at >= 0 && this.nodes[at] === node; at--) {
      if (this.names[at] === name) return true;
    }
    return false;
  }

  enter(node: JsonishNode, name: string): void {
    this.nodes.push(node);
    this.names.push(name);
  }

  leave(): void {
    this.nodes.pop();
    this.names.pop();
  }

  /** Forget every frame (a reading abandoned by a throw starts the next one clean). */
  clear(): void {
    this.nodes.length = 0;
    this.names.length = 0;
  }
}

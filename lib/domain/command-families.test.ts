// Commands grouped by shape, worked out by hand.
import { describe, expect, it } from "vitest";
import { commandFamilies, commandShape, type MatchedCommand } from "./command-families";

describe("a command's shape", () => {
  it.each([
    ["git log --all --oneline | head -20", "git log --all --oneline | head -‹n›"],
    ["git log --all --oneline | head -5", "git log --all --oneline | head -‹n›"],
    ["git show 5c565b72 --stat", "git show ‹sha› --stat"],
    // A path of one part (the checkout, /testbed) is the same everywhere: it stays.
    ["cd /testbed && git show 1a2b3c4d", "cd /testbed && git show ‹sha›"],
    ["curl -sL https://api.github.com/repos/psf/requests/pulls/6028", "curl -sL https://api.github.com/‹…›"],
    ['git log --grep="viewcode" -i', "git log --grep=‹…› -i"],
    ["pip download --no-deps requests==2.32.0 -d /tmp/up", "pip download --no-deps requests==‹n› -d ‹path›"],
    ["cat  /usr/lib/python3/dist-packages/requests/utils.py", "cat ‹path›"],
    // A word of letters a to f only is not a hash.
    ["git log --all deadbeef", "git log --all deadbeef"],
  ])("%s", (command, shape) => {
    expect(commandShape(command)).toBe(shape);
  });
});

describe("families of commands", () => {
  const on = { benchmark: "b", model: "m", network: true, prompt: "vanilla" } as const;
  const off = { ...on, network: false };
  const matched: MatchedCommand[] = [
    { ...on, trajectoryId: 2, step: 4, command: "git log --all | head -5" },
    { ...on, trajectoryId: 1, step: 9, command: "git log --all | head -20" },
    { ...off, trajectoryId: 3, step: 1, command: "git log --all | head -3" },
    { ...on, trajectoryId: 1, step: 2, command: "git reflog" },
    { ...on, trajectoryId: 1, step: 3, command: "git log --all | head -1" },
  ];

  it("groups them, the largest first, with their trajectories, conditions and first examples", () => {
    const [head, reflog] = commandFamilies(matched, 2);
    // Four `git log --all | head -N` in trajectories 1, 2, 3: three with the network on, one off.
    expect(head).toMatchObject({ shape: "git log --all | head -‹n›", commands: 4, trajectories: 3 });
    expect(head!.byCondition).toEqual([
      { ...on, commands: 3 },
      { ...off, commands: 1 },
    ]);
    expect(head!.examples.map((e) => [e.trajectoryId, e.step])).toEqual([
      [1, 3],
      [1, 9],
    ]);
    expect(reflog).toMatchObject({ shape: "git reflog", commands: 1, trajectories: 1 });
  });
});

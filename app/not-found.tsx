import Link from "next/link";

export default function NotFound() {
  return (
    <>
      <h1>Not found</h1>
      <p>
        There is nothing at this address, or it holds a value that could name nothing (a number out of range, a control
        character). <Link href="/trajectories">Browse the trajectories</Link>.
      </p>
    </>
  );
}

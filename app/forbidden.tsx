import Link from "next/link";

export default function Forbidden() {
  return (
    <>
      <h1>Not for your role</h1>
      <p>
        Your account may not open this page. Annotators work from <Link href="/queue">their queue</Link>; reviewers read
        results and agreement.
      </p>
    </>
  );
}

import { Link } from '@/lib/router.tsx';

/** An operator page's heading, with the link to its companion page (the queue ↔ the audit trail). */
export function OperatorPageHeading({ title, link }: { title: string; link: { to: string; label: string } }) {
  return (
    <div className="flex flex-wrap items-baseline justify-between gap-2">
      <h1 className="text-2xl font-bold md:text-3xl">{title}</h1>
      <Link to={link.to} className="link link-primary">
        {link.label}
      </Link>
    </div>
  );
}

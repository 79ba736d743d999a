export function Footer() {
  const year = new Date().getFullYear();
  return (
    <footer className="footer footer-center mt-16 bg-neutral p-10 text-neutral-content">
      <aside>
        <p className="text-lg font-bold">
          Bulk<span className="text-secondary">Cart</span>
        </p>
        <p>Providing reliable product since 2000</p>
        <p data-testid="copyright">Copyright © {year} BulkCart. All rights reserved.</p>
      </aside>
    </footer>
  );
}

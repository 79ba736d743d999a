import { SectionHeading } from './section-heading.tsx';

/** The FAQ answers of docs/product/rules.md#faq, in that order. */
const QUESTIONS = [
  {
    question: 'Do I need a business license to buy at wholesale prices?',
    answer: 'Yes. A valid business license or reseller permit is required to buy at wholesale prices.',
  },
  {
    question: 'Is there a minimum order quantity (MOQ)?',
    answer: 'Most products have a minimum order quantity (MOQ). It varies by product and is listed on each product page.',
  },
  {
    question: 'Do you offer bulk discounts?',
    answer: 'Yes. Volume-based bulk discounts are applied automatically at checkout, or are available on request for large orders.',
  },
  {
    question: 'How long do processing and shipping take?',
    answer: 'Orders are typically processed within 2–3 business days. Shipping time depends on your location and the shipping method you choose.',
  },
] as const;

/**
 * 'Frequently Asked Questions' (docs/product/screens.md): native <details>, so each answer opens and closes on its
 * own with the keyboard and a screen reader, no script needed. The first starts open.
 */
export function FaqSection() {
  return (
    <section aria-labelledby="home-faq">
      <SectionHeading id="home-faq" title="Frequently Asked Questions" subtitle="What business buyers ask before their first bulk order." />
      <div className="grid items-center gap-8 md:grid-cols-2">
        <img
          src="/images/faq.webp"
          alt="Question and answer bubbles above shipping cartons and a checklist"
          width={480}
          height={400}
          loading="lazy"
          decoding="async"
          className="mx-auto h-auto w-full max-w-md"
        />
        <div className="flex flex-col gap-3">
          {QUESTIONS.map(({ question, answer }, index) => (
            <details key={question} open={index === 0} className="collapse collapse-arrow border border-base-300 bg-base-100 shadow-sm" data-testid="faq-item">
              <summary className="collapse-title font-semibold">{question}</summary>
              <div className="collapse-content text-base-content/80">
                <p>{answer}</p>
              </div>
            </details>
          ))}
        </div>
      </div>
    </section>
  );
}

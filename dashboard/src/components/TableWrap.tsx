import type { ReactNode } from 'react';

/**
 * A table that scrolls sideways on a narrow screen. It takes focus so the keyboard can scroll
 * it too, and is named by the table's purpose.
 */
export function TableWrap({ children, label }: { children: ReactNode; label?: string }) {
  return (
    <div className="table-wrap" tabIndex={0} role="region" aria-label={label ?? 'Table'}>
      {children}
    </div>
  );
}

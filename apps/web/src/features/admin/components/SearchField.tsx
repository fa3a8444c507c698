import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import Form from 'react-bootstrap/Form';
import Spinner from 'react-bootstrap/Spinner';

/** How long typing must pause before the search is sent. */
export const SEARCH_DEBOUNCE_MS = 300;

/**
 * "Search by email": what is typed goes to `onSearch` once typing pauses. A search changed from outside
 * (Back, a link, a notice's "Show") replaces what is in the field.
 */
export function SearchField({
  search,
  onSearch,
  searching,
}: {
  search: string;
  onSearch: (search: string) => void;
  searching: boolean;
}) {
  const [input, setInput] = useState(search);
  const [seen, setSeen] = useState(search);
  if (search !== seen) {
    setSeen(search);
    // The field's own search coming back leaves it alone; anything else is shown.
    if (search !== input.trim()) setInput(search);
  }
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  // The pause ends after renders the typing did not cause (the admin opened the audit tab meanwhile): the
  // search then goes to that render's onSearch, which knows the address as it is now, not as it was.
  const latestOnSearch = useRef(onSearch);
  useLayoutEffect(() => {
    latestOnSearch.current = onSearch;
  });

  const type = (value: string) => {
    setInput(value);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      timer.current = undefined;
      latestOnSearch.current(value.trim());
    }, SEARCH_DEBOUNCE_MS);
  };
  // Leaving the field sends a search still waiting for its pause at once, before the click that took the focus
  // (another tab, say) changes the page: sent after it, the search would write over what that click wrote.
  const sendNow = () => {
    if (timer.current === undefined) return;
    clearTimeout(timer.current);
    timer.current = undefined;
    latestOnSearch.current(input.trim());
  };

  return (
    <Form.Group controlId="admin-users-search" className="flex-grow-1 admin-search">
      <Form.Label className="small mb-1">Search by email</Form.Label>
      <div className="position-relative">
        <Form.Control
          size="sm"
          type="search"
          value={input}
          onChange={(event) => type(event.target.value)}
          onBlur={sendNow}
          autoComplete="off"
        />
        {searching && (
          <Spinner animation="border" size="sm" className="search-spinner" role="status">
            <span className="visually-hidden">Searching</span>
          </Spinner>
        )}
      </div>
    </Form.Group>
  );
}

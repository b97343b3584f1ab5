import { Badge, Drawer, Modal, TableScrollContainer, createTheme } from '@mantine/core';
import tableScroll from './table-scroll.module.css';

export const theme = createTheme({
  primaryColor: 'indigo',
  defaultRadius: 'md',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  components: {
    // Badges hold short statuses and scores: shown whole (Mantine would cut them with an ellipsis in narrow table cells).
    Badge: Badge.extend({ styles: { root: { flexShrink: 0, overflow: 'visible' }, label: { overflow: 'visible' } } }),
    // The close buttons of dialogs and panels are named for screen readers.
    Drawer: Drawer.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } }),
    Modal: Modal.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } }),
    // A table that scrolls sideways shows it: its scroll bar whenever it overflows (Mantine's default shows it on hover
    // only, which a phone never does), and edges that fade while more of it is out of view (table-scroll.module.css).
    TableScrollContainer: TableScrollContainer.extend({ defaultProps: { scrollAreaProps: { type: 'auto', classNames: { viewport: tableScroll.viewport } } } }),
  },
});

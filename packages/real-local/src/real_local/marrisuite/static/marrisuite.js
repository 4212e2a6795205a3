// MarriSuite's date picker, as Marriott's: the shared check-in / check-out calendar (/_spa/rangepicker.js), dates
// shown with their weekday ("Fri, Jul 26, 2024").
RealLocalRangePicker(document.querySelector('form.search[data-today]'), { weekday: true, wrapper: '.f' });


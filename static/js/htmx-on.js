// Marks the page as enhanced so buttons needed only without JavaScript can hide.
document.documentElement.classList.add("htmx-on");

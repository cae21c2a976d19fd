; An empty module for option tests.

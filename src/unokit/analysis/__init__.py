"""Many games at once: simulations, tournaments between bots, and the statistics a designer asks for."""

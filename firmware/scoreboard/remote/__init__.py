"""Remote receivers: an edge ring filled by a pin IRQ, the NEC and EV1527 decoders, and the
adapter that turns decoded codes into the key bitmap the buttons use (DESIGN section 11)."""

	.text
	.globl	asm_fn
asm_fn:
	ret

; virtgate boot sector guest: the smallest thing a VMI can boot that still proves the guest ran.
;
; The BIOS (SeaBIOS, as KubeVirt gives a VMI without EFI) loads this sector to 0000:7C00 in
; real mode and jumps here. It initialises the first serial port (COM1, I/O 0x3F8: the ttyS0
; that KubeVirt's console and guest-console-log read), writes one marker line, then halts for
; good with interrupts off. No BIOS service is called after boot: only port I/O, so the same
; bytes behave alike under TCG and KVM.
;
; Build: nasm -f bin -o bootsector.bin bootsector.asm   (exactly 512 bytes; see guest-images.sh)

bits 16
org 0x7c00

COM1    equ 0x3f8               ; base I/O port of the 16550 UART
THR     equ COM1 + 0            ; transmit holding register (DLAB=0) / divisor latch low (DLAB=1)
IER     equ COM1 + 1            ; interrupt enable (DLAB=0) / divisor latch high (DLAB=1)
FCR     equ COM1 + 2            ; FIFO control
LCR     equ COM1 + 3            ; line control
MCR     equ COM1 + 4            ; modem control
LSR     equ COM1 + 5            ; line status; bit 5 = transmit holding register empty

start:
        cli
        xor     ax, ax
        mov     ds, ax          ; lodsb reads DS:SI; the message lives in segment 0
        mov     ss, ax
        mov     sp, 0x7c00      ; a stack below this sector
        cld                     ; lodsb walks forward

        ; --- UART: 115200 baud, 8 data bits, no parity, 1 stop bit, FIFOs on, polled ---------
        mov     dx, IER
        xor     al, al
        out     dx, al          ; no UART interrupts: we poll
        mov     dx, LCR
        mov     al, 0x80
        out     dx, al          ; DLAB=1: THR/IER become the baud divisor latch
        mov     dx, THR
        mov     al, 1
        out     dx, al          ; divisor 1 = 115200 baud (low byte)
        mov     dx, IER
        xor     al, al
        out     dx, al          ; (high byte)
        mov     dx, LCR
        mov     al, 0x03
        out     dx, al          ; DLAB=0, 8N1
        mov     dx, FCR
        mov     al, 0xc7
        out     dx, al          ; enable and clear both FIFOs, 14-byte trigger
        mov     dx, MCR
        mov     al, 0x03
        out     dx, al          ; DTR and RTS asserted

        ; --- write the message, byte by byte ------------------------------------------------
        mov     si, message
.next:
        lodsb                   ; AL = [DS:SI++]
        test    al, al
        jz      halt            ; NUL ends the message
        mov     ah, al
        mov     dx, LSR
.wait:
        in      al, dx          ; wait until the transmitter can take a byte (a missing UART
        test    al, 0x20        ; reads 0xFF, so this never spins forever)
        jz      .wait
        mov     dx, THR
        mov     al, ah
        out     dx, al
        jmp     .next

        ; --- done: stop the CPU for good (cli, so only an NMI could wake it; then halt again) --
halt:
        cli
        hlt
        jmp     halt

        ; CR LF first: whatever the console printed before (nothing, or firmware text) ends its
        ; line, so the marker always stands alone on a line of its own.
message:
        db      13, 10, "VIRTGATE-GUEST-OK", 13, 10, 0

        times   510 - ($ - $$) db 0     ; pad to the boot signature (nasm fails if code is too long)
        dw      0xaa55                  ; boot signature: the BIOS boots only a sector ending 55 AA

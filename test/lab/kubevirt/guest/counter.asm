; virtgate counter guest: a boot sector that says it booted once, then counts seconds on its
; serial port for as long as it runs. A live migration test reads it: after the move the count
; goes on from where it was, and the boot line never comes again (a restarted guest would print
; it and count from 1).
;
; Like bootsector.asm it sets up COM1 (0x3F8, the ttyS0 KubeVirt's guest-console-log reads) and
; polls it. To wait a second it halts until the BIOS timer interrupt has counted 18 ticks in the
; BIOS data area (0040:006C, 18.2 Hz from the PIT, kept by SeaBIOS's IRQ 0 handler), so the guest
; idles between lines under TCG and KVM alike. Guest time stands still while the VM is paused, as
; during a migration's switch-over: the count has no gap, only the lines' arrival times do.
;
; Lines: "\r\nVIRTGATE-COUNTER-BOOT\r\n" once, then "VIRTGATE-COUNTER <n>\r\n" with n = 1, 2, ...
; Build: nasm -f bin -o counter.bin counter.asm   (exactly 512 bytes; see guest-images.sh)

bits 16
org 0x7c00

COM1    equ 0x3f8
THR     equ COM1 + 0
IER     equ COM1 + 1
FCR     equ COM1 + 2
LCR     equ COM1 + 3
MCR     equ COM1 + 4
LSR     equ COM1 + 5
TICKS   equ 0x046c              ; BIOS data area: timer ticks since midnight (low word)
SECOND  equ 18                  ; ticks per second, rounded down (18.2 Hz)

start:
        cli
        xor     ax, ax
        mov     ds, ax          ; the messages and the BIOS data area are both in segment 0
        mov     ss, ax
        mov     sp, 0x7c00
        cld

        ; --- UART: 115200 8N1, FIFOs on, polled (as bootsector.asm) ---------------------------
        mov     dx, IER
        xor     al, al
        out     dx, al
        mov     dx, LCR
        mov     al, 0x80
        out     dx, al
        mov     dx, THR
        mov     al, 1
        out     dx, al
        mov     dx, IER
        xor     al, al
        out     dx, al
        mov     dx, LCR
        mov     al, 0x03
        out     dx, al
        mov     dx, FCR
        mov     al, 0xc7
        out     dx, al
        mov     dx, MCR
        mov     al, 0x03
        out     dx, al

        mov     si, boot_line
        call    puts
        xor     bp, bp          ; the count
        sti                     ; the BIOS timer interrupt advances TICKS from here on

next_second:
        mov     bx, [TICKS]
.wait:
        hlt                     ; sleep until an interrupt (the timer's, 18.2 times a second)
        mov     ax, [TICKS]
        sub     ax, bx          ; ticks since the last line (wraps correctly in 16 bits)
        cmp     ax, SECOND
        jb      .wait
        inc     bp
        mov     si, count_prefix
        call    puts
        mov     ax, bp
        call    put_decimal
        mov     si, line_end
        call    puts
        jmp     next_second

; Writes the NUL-terminated string at DS:SI.
puts:
        lodsb
        test    al, al
        jz      .done
        call    putc
        jmp     puts
.done:
        ret

; Writes AX in decimal: digits pushed least significant first, then popped.
put_decimal:
        mov     cx, 0
        mov     bx, 10
.divide:
        xor     dx, dx
        div     bx              ; AX = AX / 10, DX = remainder
        push    dx
        inc     cx
        test    ax, ax
        jnz     .divide
.emit:
        pop     ax
        add     al, '0'
        call    putc
        loop    .emit
        ret

; Writes AL once the transmitter can take a byte (a missing UART reads 0xFF: never spins forever).
putc:
        push    dx
        push    ax
        mov     dx, LSR
.busy:
        in      al, dx
        test    al, 0x20
        jz      .busy
        pop     ax
        mov     dx, THR
        out     dx, al
        pop     dx
        ret

boot_line:
        db      13, 10, "VIRTGATE-COUNTER-BOOT", 13, 10, 0
count_prefix:
        db      "VIRTGATE-COUNTER ", 0
line_end:
        db      13, 10, 0

        times   510 - ($ - $$) db 0
        dw      0xaa55
